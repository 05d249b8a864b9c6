/** Lets non-React code (the API client) navigate with the router once the app has registered it. */
type TNavigate = (path: string) => void;

let navigator: TNavigate | null = null;

export function setAppNavigator(navigate: TNavigate | null): void {
  navigator = navigate;
}

export function navigateApp(path: string): void {
  if (navigator) navigator(path);
  else window.location.assign(path);
}
