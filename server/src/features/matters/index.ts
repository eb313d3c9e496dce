// What other features use of matters: the checks every change inside a matter starts with (find or lock a matter
// the user may see, refuse changes to a read-only one) and the matter as the API answers it.
export {
  getVisibleMatter,
  lockVisibleMatter,
  requireMatterWritable,
  requireMatterWriter,
  requireVisible,
  toMatterDto,
  type MatterRow,
} from './matter-access.js';
