  .text
  .globl val
val:
  movl $7, %eax
  ret
  .section .note.GNU-stack,"",@progbits
