/** charrestore in the browser: the char engine on onnxruntime-web. */
export { Detector } from "./src/detect.js";
export { Restorer, SPACES_MODES } from "./src/restorer.js";
export { useCompressedWasm } from "./src/wasm.js";
