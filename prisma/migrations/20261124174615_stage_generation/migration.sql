-- AlterTable
ALTER TABLE "Match" ADD COLUMN     "loserToMatchId" TEXT,
ADD COLUMN     "loserToSlot" TEXT,
ADD COLUMN     "opponents" JSONB,
ADD COLUMN     "position" INTEGER,
ADD COLUMN     "sourceA" JSONB,
ADD COLUMN     "sourceB" JSONB,
ADD COLUMN     "winnerToMatchId" TEXT,
ADD COLUMN     "winnerToSlot" TEXT;

-- AlterTable
ALTER TABLE "Round" ADD COLUMN     "bracket" TEXT;

-- AlterTable
ALTER TABLE "Stage" ADD COLUMN     "seeding" JSONB,
ADD COLUMN     "settings" JSONB NOT NULL DEFAULT '{}',
ADD COLUMN     "startedAt" TIMESTAMP(3);
