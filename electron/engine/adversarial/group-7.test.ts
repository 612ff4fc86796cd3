import { defineGroup } from './define-group.fixture';

defineGroup('code that knows it is under test, each by another signal, and assertion patches the guard finds', [
  'S71',
  'S72',
  'S73',
  'S74',
  'S75',
  'S76',
  'S77',
  'S78',
  'S79',
  'S80',
  'S81',
  'S82',
  'S83',
  'S84',
  'S85',
  'S86',
  'S87',
  'S88',
  'S89',
]);
