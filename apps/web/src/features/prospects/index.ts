/**
 * The prospects feature's public face: the only file of it that the app shell or another feature may import (lint holds
 * this). Its screens are handed out as loaders, so that each stays a chunk of its own that the route table loads lazily.
 */
export const prospectsScreens = {
  companySearch: () => import('./routes/company-search-screen'),
  listDetail: () => import('./routes/list-detail-screen'),
  lists: () => import('./routes/lists-screen'),
  peopleSearch: () => import('./routes/people-search-screen'),
  profile: () => import('./routes/profile-screens'),
  prospectHome: () => import('./routes/prospect-home-screen'),
  prospectSettings: () => import('./routes/prospect-settings-screen'),
  publicReverseLookup: () => import('./routes/public-reverse-lookup-screen'),
  reverseLookup: () => import('./routes/reverse-lookup-screens'),
  savedSearches: () => import('./routes/saved-searches-screen'),
};
