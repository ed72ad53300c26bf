-- DropIndex
DROP INDEX "WebhookDelivery_nextAttemptAt_idx";

-- CreateIndex
CREATE INDEX "WebhookDelivery_endpointId_nextAttemptAt_idx" ON "WebhookDelivery"("endpointId", "nextAttemptAt");

-- CreateIndex
CREATE INDEX "WebhookDelivery_claimedUntil_idx" ON "WebhookDelivery"("claimedUntil");
