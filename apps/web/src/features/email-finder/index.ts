/**
 * The email-finder feature's public face: the only file of it that the app shell or another feature may import (lint holds
 * this). Its screens are handed out as loaders, so that each stays a chunk of its own that the route table loads lazily.
 */
export const emailFinderScreens = {
  finderAddList: () => import('./routes/finder-add-list-screen'),
  finderDownload: () => import('./routes/finder-download-screens'),
  finderListDetail: () => import('./routes/finder-list-detail-screen'),
  finderLists: () => import('./routes/finder-lists-screen'),
  quickFinder: () => import('./routes/quick-finder-screen'),
};
