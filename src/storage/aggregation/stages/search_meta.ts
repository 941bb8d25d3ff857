/** `$searchMeta`: Mayfly has no search node, so it answers as mongod without one does (31082). */
import { searchStagesNotEnabled } from '../../../errors/search_not_enabled.js';
import { searchStage } from './_internal/search_not_enabled.js';
import type { StageDefinition } from '../stage.js';

/** `{$searchMeta: ...}`: 31082 SearchNotEnabled. */
export const searchMeta: StageDefinition = searchStage('$searchMeta', searchStagesNotEnabled);
