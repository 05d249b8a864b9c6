/**
 * The analytics feature's public face: the only file of it that the app shell or another feature may import (lint holds
 * this). Its screens are handed out as loaders, so that each stays a chunk of its own that the route table loads lazily.
 */
export const analyticsScreens = {
  analyticsFeature: () => import('./routes/analytics-feature-screens'),
  analyticsOverview: () => import('./routes/analytics-overview-screen'),
  analyticsTeam: () => import('./routes/analytics-team-screen'),
};
