// What other features use of matters: the checks every change inside a matter starts with (find or lock a matter
// the user may see, refuse changes to a read-only one) and the matter as the API answers it.
export {
  getVisibleMatter,
  lockVisibleMatter,
  readOnlyRefusal,
  requireMatterWritable,
  requireMatterWriter,
  requireVisible,
  toMatterDto,
  visibleMatters,
  type MatterRow,
} from './matter-access.js';
// The matter's state changed by the features that own the change, under the matter's row lock: the legal hold
// (legal-hold), vaulting (vault), the lock the retention-end job takes before destroying files (vault), and the
// retention end an administrator extends in the disposition review (disposition).
export { lockMatterForChange, markMatterVaulted, setMatterHold, setMatterRetention } from './matter-state.service.js';
