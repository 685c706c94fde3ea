// Notices across processes on PostgreSQL (the scenarios: ../support/crossProcessDelivery.ts).
import { describeCrossProcessDelivery } from '../support/crossProcessDelivery.js';
import { dropSharedSchemas, postgresShared } from '../support/sharedStores.js';

afterAll(dropSharedSchemas);

describeCrossProcessDelivery([['postgres', postgresShared]]);
