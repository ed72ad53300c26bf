-- DropIndex
DROP INDEX "WebhookDelivery_endpointId_idx";

-- AlterTable
ALTER TABLE "ChangeLog" ADD COLUMN     "xid" xid8 NOT NULL DEFAULT pg_current_xact_id();

-- AlterTable
ALTER TABLE "WebhookDelivery" ADD COLUMN     "changeId" TEXT,
ADD COLUMN     "claimToken" TEXT;

-- AlterTable
ALTER TABLE "WebhookEndpoint" ADD COLUMN     "disabledReason" TEXT,
ADD COLUMN     "failingSince" TIMESTAMP(3),
ADD COLUMN     "previousSecret" TEXT,
ADD COLUMN     "previousSecretExpiresAt" TIMESTAMP(3);

-- CreateTable
CREATE TABLE "WebhookAttempt" (
    "deliveryId" TEXT NOT NULL,
    "number" INTEGER NOT NULL,
    "startedAt" TIMESTAMP(3) NOT NULL,
    "durationMs" INTEGER NOT NULL,
    "responseStatus" INTEGER,
    "errorCode" TEXT,
    "responseBody" TEXT,

    CONSTRAINT "WebhookAttempt_pkey" PRIMARY KEY ("deliveryId","number")
);

-- CreateTable
CREATE TABLE "ChangeFeedPosition" (
    "name" TEXT NOT NULL,
    "xid" xid8 NOT NULL,
    "sequence" BIGINT NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ChangeFeedPosition_pkey" PRIMARY KEY ("name")
);

-- CreateIndex
CREATE INDEX "ChangeLog_xid_sequence_idx" ON "ChangeLog"("xid", "sequence");

-- CreateIndex
CREATE INDEX "ChangeLog_createdAt_idx" ON "ChangeLog"("createdAt");

-- CreateIndex
CREATE INDEX "WebhookDelivery_endpointId_createdAt_idx" ON "WebhookDelivery"("endpointId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "WebhookDelivery_endpointId_changeId_key" ON "WebhookDelivery"("endpointId", "changeId");

-- AddForeignKey
ALTER TABLE "WebhookAttempt" ADD CONSTRAINT "WebhookAttempt_deliveryId_fkey" FOREIGN KEY ("deliveryId") REFERENCES "WebhookDelivery"("id") ON DELETE CASCADE ON UPDATE CASCADE;
