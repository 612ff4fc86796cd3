import { defineGroup } from './define-group.fixture';

defineGroup('the Navigator, run-telling code, REFACTOR and order', [
  'S46',
  'S47',
  'S48',
  'S49',
  'S50',
  'S51',
  'S52',
  'S53',
  'S54',
  'S55',
  'S56',
  'S60',
  'S61',
  'S62',
  'S63',
]);
