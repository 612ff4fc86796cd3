import { defineGroup } from './define-group.fixture';

defineGroup('forging from inside the test process (report frames, value-targeted patches), and code that reads its own source or other signals of a test run', [
  'S64',
  'S65',
  'S66',
  'S67',
  'S68',
  'S69',
  'S70',
  'S90',
  'S91',
  'S92',
  'S93',
  'S94',
  'S95',
]);
