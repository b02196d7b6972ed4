/**
 * The precondition of the WebGPU-vs-WASM greedy agreement test (e2e/webgpu-agreement.spec.ts), checked rather
 * than assumed: on the prompt of tests/fixtures/models/aerie-tiny-qwen2.greedy.json (found by
 * scripts/models/find-greedy-prompt.ts), the committed random-weight decoder's greedy path leads by at least the
 * fixture's margin at every step in fp32 and q4 (re-derived here, ONNX Runtime's CPU in Node), and the app's own
 * decode loop (TransformersGenerator, KV cache) writes exactly those tokens.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { AutoModelForCausalLM, AutoTokenizer, type Tensor } from '@huggingface/transformers';
import { beforeAll, describe, expect, it } from 'vitest';
import { configureRuntime } from '../../../src/models/embed';
import { TEST_GENERATOR_ID } from '../../../src/models/generate/generator-presets';
import { TransformersGenerator } from '../../../src/models/generate';
import { greedyPath, topTwo, type GreedyFixture } from '../../support/greedy-path';

const fixture = JSON.parse(
  readFileSync(new URL('../../fixtures/models/aerie-tiny-qwen2.greedy.json', import.meta.url), 'utf8'),
) as GreedyFixture;

beforeAll(() => {
  configureRuntime({ localModelPath: fileURLToPath(new URL('../../../public/models/', import.meta.url)) });
});

describe('the greedy agreement prompt (aerie-tiny-qwen2)', () => {
  it('topTwo finds the best, the runner-up and the gap', () => {
    expect(topTwo([0.1, 0.5, -2, 0.45, 0.2])).toEqual({ token: 1, margin: 0.5 - 0.45, runnerUp: 3 });
    expect(topTwo([3, 1, 2])).toEqual({ token: 0, margin: 1, runnerUp: 2 });
  });

  it('is the chat-templated prompt the fixture holds', async () => {
    const tokenizer = await AutoTokenizer.from_pretrained('aerie-tiny-qwen2');
    const text = tokenizer.apply_chat_template(fixture.messages, {
      tokenize: false,
      add_generation_prompt: true,
    });
    const encoded = tokenizer(text as string, { add_special_tokens: false }) as { input_ids: Tensor };
    expect(Array.from(encoded.input_ids.data as BigInt64Array, Number)).toEqual(fixture.promptIds);
  });

  for (const dtype of ['fp32', 'q4'] as const) {
    it(`leads by ≥ ${fixture.requiredMargin} at each of its steps (${dtype}), and the app writes that path`, async () => {
      expect(fixture.requiredMargin).toBeGreaterThanOrEqual(1e-2);
      const expected = fixture.paths[dtype];
      const model = await AutoModelForCausalLM.from_pretrained('aerie-tiny-qwen2', { dtype, device: 'cpu' });
      const path = await greedyPath(model, fixture.promptIds, expected.greedyIds.length);
      await model.dispose();
      expect(path.steps.map((s) => s.token)).toEqual(expected.greedyIds);
      path.steps.forEach((step, i) => {
        expect(step.margin, `step ${i + 1}`).toBeGreaterThanOrEqual(fixture.requiredMargin);
        expect(step.margin, `step ${i + 1}`).toBeCloseTo(expected.margins[i], 3);
      });

      const generator = await TransformersGenerator.load({ model: TEST_GENERATOR_ID, device: 'cpu', dtype });
      const written: number[] = [];
      await generator.generate(fixture.messages, {
        maxNewTokens: expected.greedyIds.length,
        onTokenId: (id) => written.push(id),
      });
      await generator.dispose();
      expect(written).toEqual(expected.greedyIds);
    });
  }
});
