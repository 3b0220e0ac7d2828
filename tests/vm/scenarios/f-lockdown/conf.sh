cfs=/sys/kernel/config/suspend2
swap_conf
