let ctx: AudioContext | null = null;

function beep(frequencies: number[], duration: number, type: OscillatorType): void {
  try {
    ctx ??= new AudioContext();
    const start = ctx.currentTime;
    frequencies.forEach((f, i) => {
      const osc = ctx!.createOscillator();
      const gain = ctx!.createGain();
      osc.type = type;
      osc.frequency.value = f;
      const t = start + i * duration;
      gain.gain.setValueAtTime(0.0001, t);
      gain.gain.exponentialRampToValueAtTime(0.3, t + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, t + duration);
      osc.connect(gain).connect(ctx!.destination);
      osc.start(t);
      osc.stop(t + duration);
    });
  } catch {
    // No audio device: the colour and the text still say what happened.
  }
}

/** Two rising notes: label bought and printing. */
export const playSuccess = (enabled: boolean) => enabled && beep([880, 1320], 0.12, 'sine');
/** Three low buzzes: look at the screen. */
export const playFailure = (enabled: boolean) => enabled && beep([220, 180, 220], 0.18, 'square');
/** One short tick: an item counted into the box. */
export const playCounted = (enabled: boolean) => enabled && beep([1046], 0.06, 'sine');
/** A high falling warble, unlike the failure buzz: that item does not go in this box. */
export const playWrongItem = (enabled: boolean) =>
  enabled && beep([1568, 784, 1568, 784], 0.09, 'sawtooth');
