/**
 * The prelude e2e/support/webgpu-faults.ts puts before a model worker's script: wraps Chromium's real WebGPU
 * objects to inject one fault (`aerieGpuFault`, defined just before this code; see webgpu-faults.ts). Plain
 * JavaScript, served as it is: no transpiler may add helpers to it (arrow functions inside a function expression
 * get none).
 */
(function injectGpuFault(fault) {
  if (typeof GPUAdapter === 'undefined' || globalThis.__aerieGpuFault) return;
  const state = { readbacks: 0, devices: [] };
  globalThis.__aerieGpuFault = state;

  const requestDevice = GPUAdapter.prototype.requestDevice;
  GPUAdapter.prototype.requestDevice = function (descriptor) {
    if (fault.kind === 'request-device') {
      return Promise.reject(new DOMException('Injected: the driver refused the device', 'OperationError'));
    }
    if (fault.kind === 'claims-shader-f16' && descriptor && descriptor.requiredFeatures) {
      const wanted = Array.from(descriptor.requiredFeatures).filter(function (f) {
        return f !== 'shader-f16';
      });
      descriptor = Object.assign({}, descriptor, { requiredFeatures: wanted });
    }
    return requestDevice.call(this, descriptor).then(function (device) {
      state.devices.push(device);
      return device;
    });
  };

  if (fault.kind === 'claims-shader-f16') {
    const has = GPUSupportedFeatures.prototype.has;
    GPUSupportedFeatures.prototype.has = function (name) {
      return name === 'shader-f16' || has.call(this, name);
    };
  }

  if (fault.kind === 'hardware-adapter') {
    Object.defineProperty(GPUAdapterInfo.prototype, 'isFallbackAdapter', {
      get: function () {
        return false;
      },
    });
  }

  function report(device, error) {
    device.dispatchEvent(new GPUUncapturedErrorEvent('uncapturederror', { error: error }));
  }

  // Faults mid-work strike once the `afterReadbacks`-th result was read back (a run of the known-input check or
  // of a model reads its output back once), at the next submission of work: the start of the next run, as a
  // driver reset between two runs would. The run before it has its result.
  let armed = false;
  const mapAsync = GPUBuffer.prototype.mapAsync;
  GPUBuffer.prototype.mapAsync = function (mode, offset, size) {
    if (mode & GPUMapMode.READ) {
      state.readbacks++;
      if (state.readbacks === fault.afterReadbacks) armed = true;
    }
    return mapAsync.call(this, mode, offset, size);
  };
  const submit = GPUQueue.prototype.submit;
  GPUQueue.prototype.submit = function (buffers) {
    if (armed) {
      armed = false;
      const device = state.devices.find(function (d) {
        return d.queue === this;
      }, this);
      if (device && fault.kind === 'lose-device') device.destroy();
      if (device && fault.kind === 'out-of-memory') {
        report(device, new GPUOutOfMemoryError('Injected: out of memory allocating a buffer'));
      }
    }
    return submit.call(this, buffers);
  };

  if (fault.kind === 'unsupported-operator') {
    const createShaderModule = GPUDevice.prototype.createShaderModule;
    GPUDevice.prototype.createShaderModule = function (descriptor) {
      if (descriptor.code.includes(fault.marker)) {
        const message = 'Injected: this adapter cannot compile a shader using ' + fault.marker;
        queueMicrotask(() => report(this, new GPUValidationError(message)));
      }
      return createShaderModule.call(this, descriptor);
    };
  }

  if (fault.kind === 'wrong-numbers') {
    const writeBuffer = GPUQueue.prototype.writeBuffer;
    GPUQueue.prototype.writeBuffer = function (buffer, offset, data, dataOffset, size) {
      const view = ArrayBuffer.isView(data) ? data : new Uint8Array(data);
      if (view.byteLength % 4 !== 0 || view.byteLength < 64) {
        return writeBuffer.call(this, buffer, offset, data, dataOffset, size);
      }
      const floats = new Float32Array(view.buffer.slice(view.byteOffset, view.byteOffset + view.byteLength));
      for (let i = 0; i < floats.length; i++) if (Number.isFinite(floats[i])) floats[i] *= 1.5;
      const unit = ArrayBuffer.isView(data) ? data.BYTES_PER_ELEMENT || 1 : 1;
      const bytes = new Uint8Array(floats.buffer);
      return writeBuffer.call(
        this,
        buffer,
        offset,
        bytes,
        (dataOffset || 0) * unit,
        size === undefined ? undefined : size * unit,
      );
    };
  }
})(globalThis.aerieGpuFault);
