-- AlterTable
ALTER TABLE "Match" ADD COLUMN     "startedAt" TIMESTAMP(3),
ADD COLUMN     "streamUrl" TEXT;
