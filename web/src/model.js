/**
 * The char model on onnxruntime-web: a session over the model's bytes (checked against the card's sha256 by
 * the caller), and one call per batch of equal-length windows, as charrestore/runtime.py runs it.
 */

import * as ort from "onnxruntime-web";

export class CharModel {
  constructor(session, nClasses) {
    this.session = session;
    this.nClasses = nClasses;
    this.queue = Promise.resolve(); // onnxruntime-web runs one call of a session at a time
  }

  static async fromBytes(bytes, nClasses) {
    const session = await ort.InferenceSession.create(bytes, { executionProviders: ["wasm"], logSeverityLevel: 3 });
    return new CharModel(session, nClasses);
  }

  /** Logits [batch, time, classes] (flat) for int32 ids of ``batch`` windows of ``time`` positions; calls that
   * overlap (restores awaited together) wait for each other. */
  run(ids, batch, time) {
    const result = this.queue.then(() => this.runNow(ids, batch, time));
    this.queue = result.catch(() => {});
    return result;
  }

  async runNow(ids, batch, time) {
    const feeds = { [this.session.inputNames[0]]: new ort.Tensor("int32", ids, [batch, time]) };
    const out = await this.session.run(feeds);
    const logits = out[this.session.outputNames[0]];
    if (logits.dims[2] !== this.nClasses) throw new Error(`the model gives ${logits.dims[2]} classes, not ${this.nClasses}`);
    return logits.data;
  }
}
