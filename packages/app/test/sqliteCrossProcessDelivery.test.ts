// Notices across processes on one SQLite file (the scenarios: support/crossProcessDelivery.ts): each process hears
// the others' commits through the file.
import { describeCrossProcessDelivery } from './support/crossProcessDelivery.js';
import { sqliteShared } from './support/sharedStores.js';

describeCrossProcessDelivery([['sqlite', sqliteShared]]);
