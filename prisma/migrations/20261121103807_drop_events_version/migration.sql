-- AlterTable
ALTER TABLE "Organisation" DROP COLUMN "eventsVersion";
