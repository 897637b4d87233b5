/** The display's size and the size the model sees, with the mapping between them. */
export interface Scaling {
  /** The display's width in pixels. */
  displayWidth: number;
  /** The display's height in pixels. */
  displayHeight: number;
  /** The screenshot's width: what the model sees and clicks in. */
  modelWidth: number;
  /** The screenshot's height. */
  modelHeight: number;
  /** modelWidth / displayWidth, rounded to 4 places (1 when the display fits). */
  scale: number;
}

/**
 * The model's size for a display: the display scaled down (never up), keeping its aspect ratio,
 * to fit a box of `maxWidth`×`maxHeight`.
 *
 * @param displayWidth - the display's width in pixels
 * @param displayHeight - the display's height in pixels
 * @param maxWidth - the widest screenshot the model gets
 * @param maxHeight - the tallest screenshot the model gets
 * @returns the scaling
 */
export function scalingFor(
  displayWidth: number,
  displayHeight: number,
  maxWidth: number,
  maxHeight: number,
): Scaling {
  const factor = Math.min(1, maxWidth / displayWidth, maxHeight / displayHeight);
  const modelWidth = Math.max(1, Math.round(displayWidth * factor));
  const modelHeight = Math.max(1, Math.round(displayHeight * factor));
  return {
    displayWidth,
    displayHeight,
    modelWidth,
    modelHeight,
    scale: Math.round((modelWidth / displayWidth) * 10_000) / 10_000,
  };
}

/**
 * The display pixel a model pixel stands for: the one under the model pixel's centre, computed
 * from the two integer sizes (not the rounded scale), so every model pixel maps inside its own
 * footprint on the display.
 *
 * @param scaling - the sizes
 * @param x - a model x, 0 ≤ x < modelWidth
 * @param y - a model y, 0 ≤ y < modelHeight
 * @returns the display pixel
 */
export function toDisplay(scaling: Scaling, x: number, y: number): { x: number; y: number } {
  return {
    x: Math.min(
      scaling.displayWidth - 1,
      Math.floor(((x + 0.5) * scaling.displayWidth) / scaling.modelWidth),
    ),
    y: Math.min(
      scaling.displayHeight - 1,
      Math.floor(((y + 0.5) * scaling.displayHeight) / scaling.modelHeight),
    ),
  };
}

/**
 * The model pixel under a display pixel's centre (the inverse of {@link toDisplay}: a model pixel mapped to the display and back is itself).
 *
 * @param scaling - the sizes
 * @param x - a display x
 * @param y - a display y
 * @returns the model pixel
 */
export function toModel(scaling: Scaling, x: number, y: number): { x: number; y: number } {
  const clamp = (value: number, size: number) => Math.max(0, Math.min(size - 1, value));
  return {
    x: clamp(
      Math.floor(((x + 0.5) * scaling.modelWidth) / scaling.displayWidth),
      scaling.modelWidth,
    ),
    y: clamp(
      Math.floor(((y + 0.5) * scaling.modelHeight) / scaling.displayHeight),
      scaling.modelHeight,
    ),
  };
}
