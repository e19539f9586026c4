// Fixtures are imported as text (`?raw`), a Vite feature the pool provides.
declare module '*?raw' {
  const text: string
  export default text
}
