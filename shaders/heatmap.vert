// Full-screen triangle from gl_VertexID: no vertex buffers needed.
// The loader prepends "#version 300 es" (WebGL2) or "#version 330 core" (desktop).
out vec2 v_uv;
void main() {
  vec2 p = vec2(float((gl_VertexID << 1) & 2), float(gl_VertexID & 2));
  v_uv = p;
  gl_Position = vec4(p * 2.0 - 1.0, 0.0, 1.0);
}
