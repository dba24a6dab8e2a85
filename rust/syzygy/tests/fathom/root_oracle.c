/* The oracle behind tests/data/fathom_root.txt: Fathom's own root ranking (tb_probe_root_dtz)
 * and WDL (tb_probe_wdl), for comparison with shatranj-syzygy's port. Not built by the tests;
 * build it against a Fathom checkout (jdart1/Fathom, MIT) when the data is to be remade:
 *
 *   gcc -O2 -I FATHOM/src -o oracle tests/fathom/root_oracle.c FATHOM/src/tbprobe.c -lpthread
 *   ./oracle data/syzygy/regular < bitboards.txt > out.txt
 *
 * Input, one position a line: white black kings queens rooks bishops knights pawns (hex
 * bitboards, a1 = bit 0), halfmove clock, en-passant square (0 if none), turn (1 = White).
 * Output: "wdl W ok OK n N" and N items "from-to-promotion:rank" (promotion 1 Q, 2 R, 3 B,
 * 4 N). */
#include <stdio.h>
#include <stdlib.h>
#include <inttypes.h>
#include "tbprobe.h"
int main(int argc, char **argv) {
  if (!tb_init(argv[1])) { fprintf(stderr, "init failed\n"); return 1; }
  fprintf(stderr, "largest %u\n", TB_LARGEST);
  uint64_t w,b,k,q,r,bi,n,p; unsigned r50, ep, turn;
  static struct TbRootMoves rm;
  while (scanf("%" SCNx64 " %" SCNx64 " %" SCNx64 " %" SCNx64 " %" SCNx64 " %" SCNx64 " %" SCNx64 " %" SCNx64 " %u %u %u", &w,&b,&k,&q,&r,&bi,&n,&p,&r50,&ep,&turn) == 11) {
    unsigned wdl = tb_probe_wdl(w,b,k,q,r,bi,n,p,0,0,ep,turn);
    int ok = tb_probe_root_dtz(w,b,k,q,r,bi,n,p,r50,0,ep,turn,false,true,&rm);
    printf("wdl %u ok %d n %u", wdl, ok, ok ? rm.size : 0);
    if (ok) for (unsigned i = 0; i < rm.size; i++) {
      TbMove m = rm.moves[i].move;
      printf(" %u-%u-%u:%d", TB_MOVE_FROM(m), TB_MOVE_TO(m), TB_MOVE_PROMOTES(m), rm.moves[i].tbRank);
    }
    printf("\n");
  }
  return 0;
}
