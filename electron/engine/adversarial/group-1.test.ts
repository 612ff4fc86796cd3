import { defineGroup } from './define-group.fixture';

defineGroup('forging the verdict from the code under test', [
  'S01',
  'S02',
  'S03',
  'S04',
  'S05',
  'S06',
  'S07',
  'S08',
  'S09',
  'S10',
  'S11',
  'S12',
  'S13',
  'S14',
  'S15',
]);
