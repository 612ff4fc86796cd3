import { defineGroup } from './define-group.fixture';

defineGroup('code that knows it is under test, each by another signal', ['S71', 'S72', 'S73', 'S74', 'S75', 'S76', 'S77', 'S78']);
