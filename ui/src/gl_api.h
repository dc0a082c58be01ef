// The one place the UI touches platform GL headers: GLES 3.0 on the web (WebGL2), GL 3.3 core
// entry points on the desktop (the desktop app links libGL; Mesa exports them).
#pragma once
#if defined(__EMSCRIPTEN__)
#include <GLES3/gl3.h>
#define LLMC_GLSL_VERSION "#version 300 es\nprecision highp float;\nprecision highp int;\nprecision highp sampler2D;\n"
#else
#define GL_GLEXT_PROTOTYPES 1
#include <GL/gl.h>
#include <GL/glext.h>
#define LLMC_GLSL_VERSION "#version 330 core\n"
#endif
