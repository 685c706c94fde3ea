// Issue 15 through the facade on PostgreSQL (the scenarios: ../support/agentSideScenarios.ts).
import { postgresKind } from '@session-state/testkit';

import { describeAgentSide } from '../support/agentSideScenarios.js';

describeAgentSide([['postgres', postgresKind]]);
