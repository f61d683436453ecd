export function Account() {
  return <p>TODO</p>;
}
