/** The renderer's entry: mount the app, bind the URL hash to the screen, connect to main. */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { boot } from './store/actions';
import { bindHashRoute } from './store/hash-route';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

bindHashRoute();
void boot();

createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
