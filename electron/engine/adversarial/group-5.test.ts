import { defineGroup } from './define-group.fixture';

defineGroup('without bubblewrap', ['S57', 'S58', 'S59']);
