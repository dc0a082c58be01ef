// Heatmap of a value over a small grid (e.g. step time over tp × pp). The data texture holds, per
// cell, (normalised value in [0, 1] with 0 = best, status): status 1 = fits, 0.5 = does not fit,
// 0 = invalid layout. Colours: viridis for the value; cells that do not fit are striped red;
// invalid cells are dark grey. Cell borders are drawn in the shader.
uniform sampler2D u_cells;
uniform ivec2 u_grid;     // columns, rows
uniform vec2 u_size_px;   // target size in pixels
in vec2 v_uv;
out vec4 o_color;

// Viridis, polynomial fit (Matt Zucker, shadertoy WlfXRN, CC0).
vec3 viridis(float t) {
  const vec3 c0 = vec3(0.2777273272234177, 0.005407344544966578, 0.3340998053353061);
  const vec3 c1 = vec3(0.1050930431085774, 1.404613529898575, 1.384590162594685);
  const vec3 c2 = vec3(-0.3308618287255563, 0.214847559468213, 0.09509516302823659);
  const vec3 c3 = vec3(-4.634230498983486, -5.799100973351585, -19.33244095627987);
  const vec3 c4 = vec3(6.228269936347081, 14.17993336680509, 56.69055260068105);
  const vec3 c5 = vec3(4.776384997670288, -13.74514537774601, -65.35303263337234);
  const vec3 c6 = vec3(-5.435455855934631, 4.645852612178535, 26.3124352495832);
  return c0 + t * (c1 + t * (c2 + t * (c3 + t * (c4 + t * (c5 + t * c6)))));
}

void main() {
  // Row 0 at the top: flip v.
  vec2 uv = vec2(v_uv.x, 1.0 - v_uv.y);
  vec2 cellf = uv * vec2(u_grid);
  ivec2 cell = clamp(ivec2(floor(cellf)), ivec2(0), u_grid - 1);
  vec2 texel = texelFetch(u_cells, cell, 0).rg;
  float value = texel.r, status = texel.g;
  vec3 color = viridis(1.0 - clamp(value, 0.0, 1.0));  // best (0) is bright yellow
  if (status < 0.25) {
    color = vec3(0.18);
  } else if (status < 0.75) {
    vec2 px = uv * u_size_px;
    float stripe = step(0.5, fract((px.x + px.y) / 12.0));
    color = mix(color, vec3(0.85, 0.15, 0.15), 0.35 + 0.35 * stripe);
  }
  vec2 f = fract(cellf);
  vec2 border_px = min(f, 1.0 - f) * u_size_px / vec2(u_grid);
  if (min(border_px.x, border_px.y) < 1.0) color = vec3(0.08);
  o_color = vec4(color, 1.0);
}
