export function ReauthPrompt() {
  return null;
}
