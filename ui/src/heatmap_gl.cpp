// Renders the heatmap grid through the project's own GLSL shaders (shaders/heatmap.*) into a
// texture that ImGui then shows with ImGui::Image. GL state touched here is restored, because
// this runs between ImGui::NewFrame() and the backend's own rendering.
#include "heatmap_gl.h"

#include <string>

#include "gl_api.h"

namespace llmc::ui {
namespace shaders {
extern const char* const heatmap_vert;
extern const char* const heatmap_frag;
}  // namespace shaders

namespace {

GLuint compile(GLenum kind, const char* body, std::string& err) {
  const std::string src = std::string(LLMC_GLSL_VERSION) + body;
  const char* text = src.c_str();
  GLuint sh = glCreateShader(kind);
  glShaderSource(sh, 1, &text, nullptr);
  glCompileShader(sh);
  GLint ok = 0;
  glGetShaderiv(sh, GL_COMPILE_STATUS, &ok);
  if (!ok) {
    char log[1024] = "";
    glGetShaderInfoLog(sh, sizeof log, nullptr, log);
    err = std::string(kind == GL_VERTEX_SHADER ? "vertex" : "fragment") + " shader: " + log;
    glDeleteShader(sh);
    return 0;
  }
  return sh;
}

}  // namespace

bool HeatmapRenderer::init(std::string& err) {
  if (program_) return true;
  GLuint vs = compile(GL_VERTEX_SHADER, shaders::heatmap_vert, err);
  if (!vs) return false;
  GLuint fs = compile(GL_FRAGMENT_SHADER, shaders::heatmap_frag, err);
  if (!fs) {
    glDeleteShader(vs);
    return false;
  }
  program_ = glCreateProgram();
  glAttachShader(program_, vs);
  glAttachShader(program_, fs);
  glLinkProgram(program_);
  glDeleteShader(vs);
  glDeleteShader(fs);
  GLint ok = 0;
  glGetProgramiv(program_, GL_LINK_STATUS, &ok);
  if (!ok) {
    char log[1024] = "";
    glGetProgramInfoLog(program_, sizeof log, nullptr, log);
    err = std::string("link: ") + log;
    glDeleteProgram(program_);
    program_ = 0;
    return false;
  }
  glGenVertexArrays(1, &vao_);
  glGenTextures(1, &cells_);
  glGenTextures(1, &target_);
  glGenFramebuffers(1, &fbo_);
  return true;
}

HeatmapRenderer::~HeatmapRenderer() {
  if (!program_) return;
  glDeleteProgram(program_);
  glDeleteVertexArrays(1, &vao_);
  glDeleteTextures(1, &cells_);
  glDeleteTextures(1, &target_);
  glDeleteFramebuffers(1, &fbo_);
}

unsigned HeatmapRenderer::render(const std::vector<float>& value_status, int cols, int rows, int width, int height) {
  if (!program_ || cols <= 0 || rows <= 0 || width <= 0 || height <= 0) return 0;
  GLint prev_fbo = 0, prev_program = 0, prev_vao = 0, prev_tex = 0, prev_active = 0, prev_viewport[4] = {0, 0, 0, 0};
  glGetIntegerv(GL_FRAMEBUFFER_BINDING, &prev_fbo);
  glGetIntegerv(GL_CURRENT_PROGRAM, &prev_program);
  glGetIntegerv(GL_VERTEX_ARRAY_BINDING, &prev_vao);
  glGetIntegerv(GL_ACTIVE_TEXTURE, &prev_active);
  glActiveTexture(GL_TEXTURE0);
  glGetIntegerv(GL_TEXTURE_BINDING_2D, &prev_tex);
  glGetIntegerv(GL_VIEWPORT, prev_viewport);
  const GLboolean blend = glIsEnabled(GL_BLEND), scissor = glIsEnabled(GL_SCISSOR_TEST);
  glDisable(GL_BLEND);
  glDisable(GL_SCISSOR_TEST);

  // Cell data: RG32F, sampled with texelFetch (no filtering, so WebGL2 needs no float extension).
  glBindTexture(GL_TEXTURE_2D, cells_);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RG32F, cols, rows, 0, GL_RG, GL_FLOAT, value_status.data());
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);

  if (width != width_ || height != height_) {
    glBindTexture(GL_TEXTURE_2D, target_);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, width, height, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo_);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, target_, 0);
    width_ = width;
    height_ = height;
  }
  glBindFramebuffer(GL_FRAMEBUFFER, fbo_);
  glViewport(0, 0, width, height);
  glUseProgram(program_);
  glBindTexture(GL_TEXTURE_2D, cells_);
  glUniform1i(glGetUniformLocation(program_, "u_cells"), 0);
  glUniform2i(glGetUniformLocation(program_, "u_grid"), cols, rows);
  glUniform2f(glGetUniformLocation(program_, "u_size_px"), float(width), float(height));
  glBindVertexArray(vao_);
  glDrawArrays(GL_TRIANGLES, 0, 3);

  glBindVertexArray(GLuint(prev_vao));
  glUseProgram(GLuint(prev_program));
  glBindTexture(GL_TEXTURE_2D, GLuint(prev_tex));
  glActiveTexture(GLenum(prev_active));
  glBindFramebuffer(GL_FRAMEBUFFER, GLuint(prev_fbo));
  glViewport(prev_viewport[0], prev_viewport[1], prev_viewport[2], prev_viewport[3]);
  if (blend) glEnable(GL_BLEND);
  if (scissor) glEnable(GL_SCISSOR_TEST);
  return target_;
}

}  // namespace llmc::ui
