// Prepares a PGlite data directory and exits: creates it (initdb) when new and sets its shared buffers. It runs as its
// own short-lived process (see openPgliteDatabase in pglite.ts) because initdb in WebAssembly grows a process's memory to about 900 MB,
// and WebAssembly memory never shrinks; the server then opens the ready directory at a fraction of that.
import { PGlite } from '@electric-sql/pglite';

const [dir, sharedBuffers] = process.argv.slice(2);
if (!dir || !sharedBuffers) throw new Error('usage: pglite-init.mjs <data dir> <shared_buffers>');
const db = await PGlite.create(dir);
// Read at the next start (postgresql.auto.conf). PostgreSQL's 128MB default is the largest part of an idle
// embedded server's memory; the operating system's file cache sits under a smaller pool.
await db.query(`alter system set shared_buffers = '${sharedBuffers.replace(/[^0-9A-Za-z]/g, '')}'`);
await db.close();
