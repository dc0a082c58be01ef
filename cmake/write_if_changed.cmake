# write_if_changed(file content): rewrite a generated file only when its content changes, so
# generated sources do not trigger rebuilds when the data did not change.
function(write_if_changed file content)
  set(old "")
  if(EXISTS ${file})
    file(READ ${file} old)
  endif()
  if(NOT old STREQUAL content)
    file(WRITE ${file} "${content}")
  endif()
endfunction()
