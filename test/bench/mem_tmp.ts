import { openDatabase } from '../../subgraphs/shared/db/database.ts';
import { createPlatform } from '../../facade/server.ts';
const db = openDatabase({ url: process.env.DATABASE_URL });
const platform = await createPlatform({ db });
await platform.listen(4557, '127.0.0.1');
const m = (l: string) => { const u = process.memoryUsage(); console.log(l, 'rss', (u.rss/1048576).toFixed(0), 'heapUsed', (u.heapUsed/1048576).toFixed(0), 'heapTotal', (u.heapTotal/1048576).toFixed(0), 'ext', (u.external/1048576).toFixed(0)); };
m('up');
setInterval(() => m('tick'), 3000);
setTimeout(() => process.exit(0), 16000);
