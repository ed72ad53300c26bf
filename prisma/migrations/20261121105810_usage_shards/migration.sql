-- AlterTable
ALTER TABLE "UsageRecord" DROP CONSTRAINT "UsageRecord_pkey",
ADD COLUMN     "shard" INTEGER NOT NULL DEFAULT 0,
ADD CONSTRAINT "UsageRecord_pkey" PRIMARY KEY ("applicationId", "installationId", "metric", "day", "shard");
