-- CreateIndex
CREATE INDEX "Match_stageId_status_idx" ON "Match"("stageId", "status");
