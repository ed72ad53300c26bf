-- DropIndex
DROP INDEX "Standing_eventId_stageId_groupId_rank_idx";

-- CreateIndex
CREATE INDEX "Standing_eventId_stageId_groupId_idx" ON "Standing"("eventId", "stageId", "groupId");
