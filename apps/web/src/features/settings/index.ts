/**
 * The settings feature's public face: the only file of it that the app shell or another feature may import (lint holds
 * this). Its screens are handed out as loaders, so that each stays a chunk of its own that the route table loads lazily.
 */
export const settingsScreens = {
  efSettings: () => import('./routes/ef-settings-screen'),
  evSettings: () => import('./routes/ev-settings-screen'),
  settings: () => import('./routes/settings-screen'),
};
