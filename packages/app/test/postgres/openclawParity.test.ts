// OpenClaw parity through the facade on PostgreSQL (the scenarios: ../support/parityScenarios.ts).
import { dropReleasedSchemas, postgresKind } from '@session-state/testkit';

import { describeParity } from '../support/parityScenarios.js';

afterAll(dropReleasedSchemas);

describeParity([['postgres', postgresKind]]);
