import { defineGroup } from './define-group.fixture';

defineGroup('commands, processes, secrets and the database', [
  'S31',
  'S32',
  'S33',
  'S34',
  'S35',
  'S36',
  'S37',
  'S38',
  'S39',
  'S40',
  'S41',
  'S42',
  'S43',
  'S44',
  'S45',
]);
