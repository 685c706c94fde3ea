// Issue 15 through the facade on the memory and SQLite stores (the scenarios: support/agentSideScenarios.ts).
import { storeMatrix } from '@session-state/testkit';

import { describeAgentSide } from './support/agentSideScenarios.js';

describeAgentSide(storeMatrix);
