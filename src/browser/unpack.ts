// A store's compressed payloads in the browser: base64 of gzip, inflated by the browser itself
// (DecompressionStream, every current browser), from file:// as over HTTP: the bytes arrive in a
// script (history/store-scripts.ts), never through fetch().
export async function gunzipBase64(base64: string): Promise<Uint8Array> {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** Loads a script; rejects naming it when it cannot be loaded (a missing file, a pruned run). */
export function loadScript(src: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = src;
    script.onload = () => resolve();
    script.onerror = () => reject(new Error(`could not load ${src}`));
    document.head.appendChild(script);
  });
}
