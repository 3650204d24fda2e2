// The share link's packer, off the page's thread: the page posts {id, state} (the rules and
// the console's inputs) after an edit, and gets back {id, hash}, the fragment "#s=" followed
// by the state as JSON, deflated (raw) and in base64url. Deflating the rules grows with their
// size, and the page's thread is the one that answers keystrokes.
function base64url(bytes) {
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

async function pack(obj) {
  const stream = new Blob([JSON.stringify(obj)]).stream().pipeThrough(new CompressionStream("deflate-raw"));
  return base64url(new Uint8Array(await new Response(stream).arrayBuffer()));
}

self.onmessage = async (e) => {
  const { id, state } = e.data;
  let hash = "";
  try {
    hash = "#s=" + (await pack(state));
  } catch {
    // An empty hash leaves the link as it was.
  }
  postMessage({ id, hash });
};
