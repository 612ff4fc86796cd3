import { defineGroup } from './define-group';

defineGroup('without bubblewrap', ['S57', 'S58', 'S59']);
