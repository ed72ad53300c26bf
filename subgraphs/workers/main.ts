// npm run worker: a webhook worker on its own (fan-out and deliveries), for deployments that run the
// API with WEBHOOK_WORKER=off or want more delivery capacity. Any number may run against one
// PostgreSQL database. SIGTERM or SIGINT let the attempts in flight finish and be recorded.
// A database it cannot use (unreachable, not migrated, a PGlite directory another process holds) is
// one sentence and exit 1 at start.
import '../../platform/process/settings-check.ts';
import { openDatabase } from '../../platform/db/database.ts';
import { installProcessGuards, startupFinished } from '../../platform/process/process-guards.ts';
import { exitWithStartupFailure } from '../../platform/process/startup.ts';
import { WebhookWorker, webhookAttemptLogger } from './webhook-worker.ts';
import { assertDatabaseReady } from '../../platform/db/setup.ts';
import { createLogger } from '../../platform/process/logger.ts';

const logger = createLogger('esports-platform');
installProcessGuards(logger);

try {
  const db = openDatabase();
  await assertDatabaseReady(db);
  const worker = new WebhookWorker(db, { log: (message, error) => logger.error({ err: error }, message), logAttempt: webhookAttemptLogger(logger) });
  await worker.start();
  logger.info({ database: db.describe, pid: process.pid }, 'webhook worker started');
  console.log(`Webhook worker is running on ${db.describe}. Worker process ${process.pid}; stop it with Ctrl-C or SIGTERM.`);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'webhook worker stopping');
    setTimeout(() => process.exit(1), 20_000).unref();
    await worker.stop();
    await db.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
  startupFinished();
} catch (error) {
  exitWithStartupFailure(error, 'Could not start the webhook worker');
}
