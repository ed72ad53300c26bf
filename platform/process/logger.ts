// The one logger factory: pino at LOG_LEVEL, JSON lines on stdout, each line naming its service.
import pino, { type Logger } from 'pino';
import { setting } from './config.ts';

/** `service`: esports-platform (npm start, npm run worker), subgraph-<name>, router. */
export const createLogger = (service: string): Logger => pino({ level: setting('LOG_LEVEL'), base: { service } });
