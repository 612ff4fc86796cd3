import { defineGroup } from './define-group.fixture';

defineGroup('forging from inside the test process: report frames and value-targeted patches', ['S64', 'S65', 'S66', 'S67', 'S68', 'S69', 'S70']);
