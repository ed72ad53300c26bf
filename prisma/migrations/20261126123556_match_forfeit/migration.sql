-- AlterTable
ALTER TABLE "Match" ADD COLUMN     "forfeit" TEXT;
