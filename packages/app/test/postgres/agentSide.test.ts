// Issue 15 through the facade on PostgreSQL (the scenarios: ../support/agentSideScenarios.ts).
import { dropReleasedSchemas, postgresKind } from '@session-state/testkit';

import { describeAgentSide } from '../support/agentSideScenarios.js';

afterAll(dropReleasedSchemas);

describeAgentSide([['postgres', postgresKind]]);
