/** `$search`: Mayfly has no search node, so it answers as mongod without one does (31082). */
import { searchStagesNotEnabled } from '../../../errors/search_not_enabled.js';
import { searchStage } from './_internal/search_not_enabled.js';
import type { StageDefinition } from '../stage.js';

/** `{$search: ...}`: 31082 SearchNotEnabled. */
export const search: StageDefinition = searchStage('$search', searchStagesNotEnabled);
