import { useEffect } from 'react';
import { Outlet, useNavigate } from 'react-router';
import { setAppNavigator } from '../lib/app-navigator';

/** Gives non-React code (the API client's 402 redirect) the router's navigate. */
export function NavigatorBridge() {
  const navigate = useNavigate();
  useEffect(() => {
    setAppNavigator((path) => navigate(path));
    return () => setAppNavigator(null);
  }, [navigate]);
  return <Outlet />;
}
